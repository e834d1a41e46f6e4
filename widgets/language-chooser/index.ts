export { LanguageChooser } from './language-chooser';
