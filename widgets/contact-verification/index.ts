export { ContactVerification } from './contact-verification';
