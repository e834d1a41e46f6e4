export { ExitScreen } from './exit-screen';
