import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { RedirectContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { Redirect } from './redirect';

/** Args of a redirect story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<RedirectContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<RedirectContents>('redirect', name);

const meta = {
  title: 'Widgets/Redirect',
  render: (args) => <HarnessedWidget {...args} component={Redirect} onDispatch={action('dispatch')} />,
  args: { id: 'redirect', contents: fixture('middleware') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Shows its progress indicator; the navigate action shows in the Actions panel. */
export const Middleware: Story = {};
export const Dashboard: Story = { args: { contents: fixture('dashboard') } };
export const WithQuery: Story = { args: { contents: fixture('with-query') } };
export const LongPath: Story = { args: { contents: fixture('long-path') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic-locale') }, globals: { locale: 'ar' } };
