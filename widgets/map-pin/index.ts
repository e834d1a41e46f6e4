export { MapPin } from './map-pin';
