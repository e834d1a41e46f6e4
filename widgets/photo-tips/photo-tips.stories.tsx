import type { Meta, StoryObj } from '@storybook/react-vite';
import type { PhotoTipsContents } from '../../schemas/generated/types';
import { fixtureContents } from '../fixtures';
import { HarnessedWidget, type HarnessedWidgetProps } from '../test-harness';
import { PhotoTips } from './photo-tips';

/** Args of a photo_tips story: its contents (a good fixture). */
type Args = Omit<HarnessedWidgetProps<PhotoTipsContents>, 'component' | 'record' | 'onDispatch'>;

/**
 * A fixture with its /propertyOnboard/samples/ pictures taken from the client's public folder, which the app
 * serves there but Storybook does not.
 */
function fixture(name: string): PhotoTipsContents {
  const contents = fixtureContents<PhotoTipsContents>('photo_tips', name);
  const samples = contents.samples?.map((sample) => {
    const file = sample.src.match(/^\/propertyOnboard\/samples\/(.+)$/)?.[1];
    return file
      ? { ...sample, src: new URL(`../../renderer/public/samples/${file}`, import.meta.url).href }
      : sample;
  });
  return samples ? { ...contents, samples } : contents;
}

const meta = {
  title: 'Widgets/Photo tips',
  render: (args) => <HarnessedWidget {...args} component={PhotoTips} />,
  args: { id: 'photo_tips', contents: fixture('with-samples') },
  parameters: { layout: 'padded' },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Five tips and the four sample pictures (facade, reception, room, bathroom). */
export const WithSamples: Story = {};
export const TipsOnly: Story = { args: { contents: fixture('tips-only') } };
export const LongText: Story = { args: { contents: fixture('long-text') } };
export const ArabicRtl: Story = { args: { contents: fixture('arabic') }, globals: { locale: 'ar' } };
