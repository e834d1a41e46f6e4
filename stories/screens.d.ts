/** The payloads of one screen's stories (.storybook/main.ts). */
declare module 'virtual:screen-payloads/*' {
  const payloads: import('../bff/screens/screen-stories').ScreenStoryPayloads;
  export default payloads;
}
