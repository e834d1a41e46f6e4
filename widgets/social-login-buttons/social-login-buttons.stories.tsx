import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { SocialLoginButtonsContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import type { Load } from '../widget-props';
import { SocialLoginButtons } from './social-login-buttons';

/** Args of a story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<SocialLoginButtonsContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<SocialLoginButtonsContents>('social_login_buttons', name);
/** A server with every provider configured and none linked. */
const allConfigured: Load = async () => ({
  providers: ['google', 'facebook', 'apple', 'truecaller'],
  linked: [],
});

const meta = {
  title: 'Widgets/SocialLoginButtons',
  render: (args) => (
    <HarnessedWidget {...args} component={SocialLoginButtons} onDispatch={action('dispatch')} />
  ),
  args: { id: 'social_login', contents: fixture('sign-in'), load: allConfigured },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Every provider configured: four buttons under the divider. */
export const SignIn: Story = {};
/** Only Google and Apple configured on the server: the others are not drawn. */
export const SomeConfigured: Story = {
  args: { load: async () => ({ providers: ['google', 'apple'], linked: [] }) },
};
/** None configured: nothing is drawn. */
export const NoneConfigured: Story = { args: { load: async () => ({ providers: [], linked: [] }) } };
/** Linking from Account: Google is already linked, so only Apple shows. */
export const Link: Story = {
  args: {
    contents: fixture('link'),
    load: async () => ({ providers: ['google', 'apple'], linked: ['google'] }),
  },
};
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
