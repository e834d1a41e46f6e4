import { load } from './load';
import { signedInOwner } from './owner';
import { startServer } from './server';
const s = await startServer(3399, { RATE_LIMIT_MAX: '0' });
const { cookie } = await signedInOwner(s.url);
for (let i = 0; i < 2; i++) {
  const f = await load(`${s.url}/hms_ms/api/v1/screens/task`, 10, { cookie });
  console.log('checklist', f);
}
await s.stop();
