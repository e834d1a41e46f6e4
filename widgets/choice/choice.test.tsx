import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ChoiceContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import type { WidgetProps } from '../widget-props';
import { Choice } from './choice';

describe('choice fixtures', () => {
  it.each(goodFixtures('choice').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('choice', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('choice').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('choice', env.contents).valid).toBe(false);
    },
  );
});

const propertyType = fixtureContents<ChoiceContents>('choice', 'property-type');
const subType = fixtureContents<ChoiceContents>('choice', 'sub-type');

describe('Choice', () => {
  it('is a required radio group named by its label, with card options described by their text', () => {
    render(harness({ component: Choice, contents: propertyType }));
    const group = screen.getByRole('radiogroup', { name: /Property type/ });
    expect(group).toHaveAttribute('aria-required', 'true');
    const hotel = within(group).getByRole('radio', { name: 'Hotel' });
    expect(hotel).toHaveAccessibleDescription('Rooms let by the night, with a front desk');
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    expect(screen.getByText('*')).toHaveAttribute('aria-hidden', 'true');
  });

  it('stores the chosen value in its field and shows it checked', async () => {
    const record = createHarnessRecord();
    render(harness({ component: Choice, contents: propertyType, record }));
    await userEvent.click(screen.getByRole('radio', { name: 'Holiday home' }));
    expect(record.values.property_type).toBe('holiday_home');
    expect(screen.getByRole('radio', { name: 'Holiday home' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Hotel' })).not.toBeChecked();
  });

  it('moves with the arrow keys like any radio group', async () => {
    const record = createHarnessRecord();
    render(
      harness({ component: Choice, contents: propertyType, values: { property_type: 'hotel' }, record }),
    );
    screen.getByRole('radio', { name: 'Hotel' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(record.values.property_type).toBe('holiday_home');
  });

  it('shows the form error under the group, invalid and described, and clears it on a choice', async () => {
    render(
      harness({
        component: Choice,
        contents: propertyType,
        errors: { property_type: 'Please choose a property type' },
      }),
    );
    const group = screen.getByRole('radiogroup', { name: /Property type/ });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(group).toHaveAccessibleDescription('Please choose a property type');
    await userEvent.click(screen.getByRole('radio', { name: 'Hotel' }));
    expect(group).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText('Please choose a property type')).not.toBeInTheDocument();
  });

  it('with depends_on shows only the options of the selected group, and nothing before one is chosen', () => {
    const { unmount } = render(harness({ component: Choice, contents: subType }));
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    unmount();
    render(harness({ component: Choice, contents: subType, values: { property_type: 'holiday_home' } }));
    const group = screen.getByRole('radiogroup', { name: /Sub type/ });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['villa', 'apartment', 'cottage']);
    expect(group).toHaveAccessibleDescription('Pick the closest match');
  });

  it('clears the sub type when another property type is chosen', async () => {
    const record = createHarnessRecord();
    const Both = (props: WidgetProps<ChoiceContents>) => (
      <>
        <Choice {...props} contents={propertyType} />
        <Choice {...props} contents={subType} />
      </>
    );
    render(harness({ component: Both, contents: subType, record }));
    await userEvent.click(screen.getByRole('radio', { name: 'Hotel' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Resort' }));
    expect(record.values.property_sub_type).toBe('resort');
    await userEvent.click(screen.getByRole('radio', { name: 'Holiday home' }));
    expect(record.values.property_sub_type).toBeUndefined();
    expect(screen.getByRole('radio', { name: 'Villa' })).not.toBeChecked();
    expect(screen.queryByRole('radio', { name: 'Resort' })).not.toBeInTheDocument();
  });

  it('clears a sub type that does not belong to the selected type', () => {
    const record = createHarnessRecord();
    render(
      harness({
        component: Choice,
        contents: subType,
        values: { property_type: 'hotel', property_sub_type: 'villa' },
        record,
      }),
    );
    expect(record.values).toHaveProperty('property_sub_type', undefined);
    expect(screen.getAllByRole('radio').every((r) => !(r as HTMLInputElement).checked)).toBe(true);
  });

  it('keeps a sub type that belongs to the selected type', () => {
    const record = createHarnessRecord();
    render(
      harness({
        component: Choice,
        contents: subType,
        values: { property_type: 'hotel', property_sub_type: 'resort' },
        record,
      }),
    );
    expect(record.values.property_sub_type).toBe('resort');
    expect(screen.getByRole('radio', { name: 'Resort' })).toBeChecked();
  });

  it('draws Arabic right to left', () => {
    render(
      harness({
        component: Choice,
        contents: fixtureContents<ChoiceContents>('choice', 'arabic'),
        language: 'ar',
      }),
    );
    const group = screen.getByRole('radiogroup', { name: /نوع العقار/ });
    expect(within(group).getByRole('radio', { name: 'فندق' })).toBeInTheDocument();
    expect(group.closest('[dir]')).toHaveAttribute('dir', 'rtl');
  });
});
