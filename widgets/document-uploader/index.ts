export { DocumentUploader } from './document-uploader';
