import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import type { ReferralHeaderContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { ReferralHeader } from './referral-header';

/** Args of a referral_header story: its contents (a good fixture) and the fake engine's starting state. */
type Args = Omit<HarnessedWidgetProps<ReferralHeaderContents>, 'component' | 'record' | 'onDispatch'>;

const fixture = (name: string) => fixtureContents<ReferralHeaderContents>('referral_header', name);

const meta = {
  title: 'Widgets/ReferralHeader',
  render: (args) => <HarnessedWidget {...args} component={ReferralHeader} onDispatch={action('dispatch')} />,
  args: { id: 'referral_header', contents: fixture('none') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

export const NoCode: Story = {};
export const Verified: Story = { args: { contents: fixture('verified') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
