export { MultiChoice } from './multi-choice';
