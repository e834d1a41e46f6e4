export { Confirmation } from './confirmation';
