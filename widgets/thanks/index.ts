export { Thanks } from './thanks';
