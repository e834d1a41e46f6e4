import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PropertyCardContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, harness } from '../test-harness';
import { PropertyCard } from './property-card';

describe('property_card fixtures', () => {
  it.each(goodFixtures('property_card').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('property_card', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('property_card').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('property_card', env.contents).valid).toBe(false);
    },
  );
});

describe('PropertyCard', () => {
  it('shows the name as a heading, the tag and details, and runs the primary action', async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<PropertyCardContents>('property_card', 'in-progress');
    render(harness({ component: PropertyCard, contents, record }));
    const card = screen.getByRole('article', { name: 'Sea View Residency' });
    expect(within(card).getByRole('heading', { name: 'Sea View Residency' })).toBeInTheDocument();
    expect(within(card).getByText('In Progress')).toBeInTheDocument();
    expect(within(card).getByText('40% complete')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue listing' }));
    expect(record.actions).toEqual([contents.primary!.actions]);
  });

  it("opens the 'More' menu and runs the chosen item's actions (Copy Lead ID)", async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<PropertyCardContents>('property_card', 'in-progress');
    render(harness({ component: PropertyCard, contents, record }));
    expect(screen.queryByRole('menu')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'More' }));
    const menu = screen.getByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Add Referral', 'Copy Lead ID']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Copy Lead ID' }));
    expect(record.actions).toEqual([
      [{ type: 'copy_text', text: '5b0e4a52-3f7e-4b8e-8d1e-6f1c2a9b7c30', toast_text: 'Lead ID copied' }],
    ]);
  });

  it("opens the 'More' menu inside the page's main landmark (axe region, issue 12 item 19)", async () => {
    const contents = fixtureContents<PropertyCardContents>('property_card', 'in-progress');
    render(<main>{harness({ component: PropertyCard, contents })}</main>);
    await userEvent.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.getByRole('main')).toContainElement(screen.getByRole('menu'));
  });

  it('draws two buttons for an inactive listing and no menu without one', async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<PropertyCardContents>('property_card', 'inactive');
    render(harness({ component: PropertyCard, contents, record }));
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
    expect(screen.getByText('Months inactive: 3')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove listing' }));
    expect(record.actions).toEqual([[{ type: 'open_popup', popup_id: 'remove_0' }]]);
  });

  it("lists the program tags after the status (SPEC §4 'Programs: EWB/OTA, flexible/crystal')", () => {
    const contents = fixtureContents<PropertyCardContents>('property_card', 'program-tags');
    render(harness({ component: PropertyCard, contents }));
    const card = screen.getByRole('article', { name: 'Palm Grove' });
    expect(within(card).getByText('Live')).toBeInTheDocument();
    const tags = within(card).getByRole('list');
    expect(
      within(tags)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['EWB program', 'Flexible']);
  });

  it('draws a card with only a title', () => {
    render(
      harness({
        component: PropertyCard,
        contents: fixtureContents<PropertyCardContents>('property_card', 'minimal'),
      }),
    );
    expect(screen.getByRole('heading', { name: 'Palm Grove' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
