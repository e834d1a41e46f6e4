export { PhotoTips } from './photo-tips';
