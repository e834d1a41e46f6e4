/**
 * A signed-in owner for the benches (`npm run bench`, `npm run bench:images`): signed in through the development
 * outbox (`/__dev/outbox`, so the server must not run with `NODE_ENV=production`) and given properties.
 */

/** The answer's JSON, or an error naming its status and body when it is not a 2xx. */
async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

const post = (base: string, path: string, body: unknown, cookie = '') =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

/** A new Indian mobile number for each call in a run (`+9198` and 8 digits of the clock, then counted up). */
let lastNumber = 0;
function newPhone(): string {
  lastNumber = Math.max(lastNumber + 1, Date.now() % 1e8);
  return `+9198${String(lastNumber % 1e8).padStart(8, '0')}`;
}

/**
 * Signs a new owner in at `base` (sign-up code from the development outbox) and answers the `Cookie` header
 * of their session. Throws when a step answers other than 2xx.
 */
export async function signIn(base: string, phone = newPhone()): Promise<string> {
  await json(await post(base, '/hms_ms/api/v2/request_otp', { phone, purpose: 'sign_up' }));
  const outbox = await json<{ to: string; code: string }[]>(await fetch(`${base}/__dev/outbox`));
  const otp = outbox.find((m) => m.to === phone)?.code;
  const verified = await post(base, '/hms_ms/api/v2/verify_otp', { phone, purpose: 'sign_up', otp });
  await json(verified);
  return verified.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
}

/** Adds a boutique hotel for the owner of `cookie`; answers its `property_unique_id`. Throws unless 2xx. */
export async function newLead(base: string, cookie: string, title = 'Sea View Residency'): Promise<string> {
  const body = await json<{ data: { lead: { property_unique_id: string } } }>(
    await post(
      base,
      '/hms_ms/api/v1/onboard/leads',
      { title, property_type: 'hotel', property_sub_type: 'boutique_hotel' },
      cookie,
    ),
  );
  return body.data.lead.property_unique_id;
}

/** A new owner signed in with one property: the `Cookie` header and the property's id. */
export async function signedInOwner(base: string): Promise<{ cookie: string; propertyUniqueId: string }> {
  const cookie = await signIn(base);
  return { cookie, propertyUniqueId: await newLead(base, cookie) };
}
