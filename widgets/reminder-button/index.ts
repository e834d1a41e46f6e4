export { ReminderButton } from './reminder-button';
