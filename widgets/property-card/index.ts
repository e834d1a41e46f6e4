export { PropertyCard } from './property-card';
