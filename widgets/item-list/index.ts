export { ItemList } from './item-list';
