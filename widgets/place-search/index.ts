export { PlaceSearch } from './place-search';
