export { PhotoGallery } from './photo-gallery';
