// Written by `npm run gen:screen-stories` (bff/screens/screen-stories.ts): do not edit.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { ScreenStory } from '../../renderer/preview/screen-story';

const meta = {
  title: 'Screens/login',
  component: ScreenStory,
  args: { screen: 'login' },
  loaders: [async () => ({ payloads: (await import('virtual:screen-payloads/login')).default })],
  render: (args, { loaded }) => <ScreenStory {...args} payloads={loaded.payloads} />,
} satisfies Meta<typeof ScreenStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AnonymousDowntimeAr: Story = {
  name: 'anonymous-downtime-ar',
  args: { context: 'anonymous-downtime-ar.json' },
};

export const Anonymous: Story = {
  name: 'anonymous',
  args: { context: 'anonymous.json' },
};

export const OwnerDashboardEmptyAr: Story = {
  name: 'owner-dashboard-empty-ar',
  args: { context: 'owner-dashboard-empty-ar.json' },
};

export const OwnerDashboard: Story = {
  name: 'owner-dashboard',
  args: { context: 'owner-dashboard.json' },
};

export const OwnerEmail: Story = {
  name: 'owner-email',
  args: { context: 'owner-email.json' },
};

export const OwnerImagesDisabledAr: Story = {
  name: 'owner-images-disabled-ar',
  args: { context: 'owner-images-disabled-ar.json' },
};

export const OwnerImagesRoomCategories: Story = {
  name: 'owner-images-room-categories',
  args: { context: 'owner-images-room-categories.json' },
};

export const OwnerImages: Story = {
  name: 'owner-images',
  args: { context: 'owner-images.json' },
};

export const OwnerKyc: Story = {
  name: 'owner-kyc',
  args: { context: 'owner-kyc.json' },
};

export const OwnerL1KycAr: Story = {
  name: 'owner-l1-kyc-ar',
  args: { context: 'owner-l1-kyc-ar.json' },
};

export const OwnerL1RevampAr: Story = {
  name: 'owner-l1-revamp-ar',
  args: { context: 'owner-l1-revamp-ar.json' },
};

export const OwnerL1WithLead: Story = {
  name: 'owner-l1-with-lead',
  args: { context: 'owner-l1-with-lead.json' },
};

export const OwnerPublishedHolidayHomeAr: Story = {
  name: 'owner-published-holiday-home-ar',
  args: { context: 'owner-published-holiday-home-ar.json' },
};

export const OwnerPublished: Story = {
  name: 'owner-published',
  args: { context: 'owner-published.json' },
};

export const OwnerReferralAr: Story = {
  name: 'owner-referral-ar',
  args: { context: 'owner-referral-ar.json' },
};

export const OwnerResolveEmailAr: Story = {
  name: 'owner-resolve-email-ar',
  args: { context: 'owner-resolve-email-ar.json' },
};

export const OwnerReviewHolidayHomeAr: Story = {
  name: 'owner-review-holiday-home-ar',
  args: { context: 'owner-review-holiday-home-ar.json' },
};

export const OwnerReview: Story = {
  name: 'owner-review',
  args: { context: 'owner-review.json' },
};

export const OwnerSocialNoPhone: Story = {
  name: 'owner-social-no-phone',
  args: { context: 'owner-social-no-phone.json' },
};

export const OwnerTaskAddressCold: Story = {
  name: 'owner-task-address-cold',
  args: { context: 'owner-task-address-cold.json' },
};

export const OwnerTaskAddressTilesAr: Story = {
  name: 'owner-task-address-tiles-ar',
  args: { context: 'owner-task-address-tiles-ar.json' },
};

export const OwnerTaskAddress: Story = {
  name: 'owner-task-address',
  args: { context: 'owner-task-address.json' },
};

export const OwnerTaskAmenities: Story = {
  name: 'owner-task-amenities',
  args: { context: 'owner-task-amenities.json' },
};

export const OwnerTaskContactInfo: Story = {
  name: 'owner-task-contact-info',
  args: { context: 'owner-task-contact-info.json' },
};

export const OwnerTaskRoomCategories: Story = {
  name: 'owner-task-room-categories',
  args: { context: 'owner-task-room-categories.json' },
};

export const OwnerTermsAcceptedAr: Story = {
  name: 'owner-terms-accepted-ar',
  args: { context: 'owner-terms-accepted-ar.json' },
};

export const OwnerTermsContract: Story = {
  name: 'owner-terms-contract',
  args: { context: 'owner-terms-contract.json' },
};

export const OwnerTermsOutdated: Story = {
  name: 'owner-terms-outdated',
  args: { context: 'owner-terms-outdated.json' },
};

export const OwnerTerms: Story = {
  name: 'owner-terms',
  args: { context: 'owner-terms.json' },
};

export const OwnerWithCompletedBasicInfoAr: Story = {
  name: 'owner-with-completed-basic-info-ar',
  args: { context: 'owner-with-completed-basic-info-ar.json' },
};

export const OwnerWithLead: Story = {
  name: 'owner-with-lead',
  args: { context: 'owner-with-lead.json' },
};

export const Owner: Story = {
  name: 'owner',
  args: { context: 'owner.json' },
};
