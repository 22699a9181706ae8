export { ContestSettingsPage } from './contest-settings-page';
