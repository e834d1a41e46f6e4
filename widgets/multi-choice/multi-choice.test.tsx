import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MultiChoiceContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { MultiChoice } from './multi-choice';

describe('multi_choice fixtures', () => {
  it('has good and error fixtures', () => {
    expect(goodFixtures('multi_choice').length).toBeGreaterThan(0);
    expect(errorFixtures('multi_choice').length).toBeGreaterThan(0);
  });
  it.each(goodFixtures('multi_choice').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('multi_choice', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('multi_choice').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('multi_choice', env.contents).valid).toBe(false);
    },
  );
});

const amenities = fixtureContents<MultiChoiceContents>('multi_choice', 'amenities');
const noGroup = fixtureContents<MultiChoiceContents>('multi_choice', 'no-group');

describe('MultiChoice', () => {
  it('is a group named by its label, with the options under their group headings in order', () => {
    render(harness({ component: MultiChoice, contents: amenities }));
    const group = screen.getByRole('group', { name: 'Amenities' });
    expect(group).toHaveAccessibleDescription('Pick everything your guests can use');
    const headings = within(group).getAllByRole('heading', { level: 2 });
    expect(headings.map((h) => h.textContent)).toEqual(['Essentials', 'Safety', 'Facilities']);
    const safety = within(group).getByRole('group', { name: 'Safety' });
    expect(within(safety).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(safety).getByRole('checkbox', { name: 'CCTV' })).toHaveAccessibleDescription(
      'Cameras in common areas only',
    );
    expect(within(group).getAllByRole('checkbox')).toHaveLength(9);
  });

  it('tags mandatory options with mandatory_label, read as their description', () => {
    render(harness({ component: MultiChoice, contents: amenities }));
    expect(screen.getByRole('checkbox', { name: 'Wi-Fi' })).toHaveAccessibleDescription('Mandatory');
    expect(screen.getByRole('checkbox', { name: 'TV' })).not.toHaveAccessibleDescription();
    expect(screen.getAllByText('Mandatory')).toHaveLength(4);
  });

  it("falls back to the 'Mandatory' chrome text without mandatory_label", () => {
    const { mandatory_label: _omit, ...rest } = amenities;
    render(harness({ component: MultiChoice, contents: rest as MultiChoiceContents }));
    expect(screen.getByRole('checkbox', { name: 'Hot water' })).toHaveAccessibleDescription('Mandatory');
  });

  it("stores an array of values in the options' order, and removes unticked ones", async () => {
    const record = createHarnessRecord();
    render(harness({ component: MultiChoice, contents: amenities, record }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Parking' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Wi-Fi' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'TV' }));
    expect(record.values.amenities).toEqual(['wifi', 'tv', 'parking']);
    expect(screen.getByRole('checkbox', { name: 'Wi-Fi' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'TV' }));
    expect(record.values.amenities).toEqual(['wifi', 'parking']);
    expect(screen.getByRole('checkbox', { name: 'TV' })).not.toBeChecked();
  });

  it('shows the stored values ticked and toggles with the keyboard', async () => {
    const record = createHarnessRecord();
    render(harness({ component: MultiChoice, contents: amenities, values: { amenities: ['cctv'] }, record }));
    expect(screen.getByRole('checkbox', { name: 'CCTV' })).toBeChecked();
    screen.getByRole('checkbox', { name: 'Swimming pool' }).focus();
    await userEvent.keyboard(' ');
    expect(record.values.amenities).toEqual(['cctv', 'pool']);
  });

  it('lists options without a group with no heading, and marks a required group', () => {
    render(harness({ component: MultiChoice, contents: noGroup }));
    const group = screen.getByRole('group', { name: /Languages spoken/ });
    expect(within(group).queryByRole('heading')).not.toBeInTheDocument();
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.getByText('*')).toHaveAttribute('aria-hidden', 'true');
  });

  it('shows the form error under it, invalid and described, and clears it on a change', async () => {
    render(
      harness({
        component: MultiChoice,
        contents: amenities,
        errors: { amenities: 'Please select every mandatory amenity' },
      }),
    );
    const group = screen.getByRole('group', { name: 'Amenities' });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(group).toHaveAccessibleDescription('Please select every mandatory amenity');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Wi-Fi' }));
    expect(group).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText('Please select every mandatory amenity')).not.toBeInTheDocument();
  });

  it('draws Arabic right to left', () => {
    render(
      harness({
        component: MultiChoice,
        contents: fixtureContents<MultiChoiceContents>('multi_choice', 'arabic'),
        language: 'ar',
      }),
    );
    const group = screen.getByRole('group', { name: 'المرافق' });
    expect(within(group).getByRole('checkbox', { name: 'واي فاي' })).toHaveAccessibleDescription('إلزامي');
    expect(within(group).getByRole('group', { name: 'السلامة' })).toBeInTheDocument();
    expect(group.closest('[dir]')).toHaveAttribute('dir', 'rtl');
  });
});
