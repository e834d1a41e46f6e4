export { Choice } from './choice';
