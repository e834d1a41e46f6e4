export { Checklist } from './checklist';
