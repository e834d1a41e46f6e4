/**
 * KYC identifier fields inside a real Screen (issue 5): the real registry and input widget, the engine's
 * field rules and dispatcher and the real API client, with fetch replaced. A field is checked when it loses
 * focus and again on submit, each failure with its own message.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InputContents, ScreenPayload } from '../../schemas/generated/types';
import { fixtureContents } from '../../widgets/fixtures';
import { i18n } from '../i18n/instance';
import { Screen } from './screen';

const SUBMIT_ENDPOINT = '/hms_ms/api/v1/kyc/details';

const pan = fixtureContents<InputContents>('input', 'pan');
const { required_when: _gstinCondition, ...gstinContents } = fixtureContents<InputContents>('input', 'gstin');

const payload: ScreenPayload = {
  screen_id: 'kyc',
  schema_version: 1,
  widget_list: [
    { id: 'pan', widget_type: 'input', contents: pan },
    { id: 'gstin', widget_type: 'input', contents: { ...gstinContents, required: true } },
    {
      id: 'save',
      widget_type: 'button',
      contents: {
        label: 'Save',
        actions: [
          {
            type: 'submit',
            endpoint: SUBMIT_ENDPOINT,
            method: 'POST',
            fields: ['pan_number', 'gstin'],
            body: { pan_number: { var: 'form.pan_number' }, gstin: { var: 'form.gstin' } },
          },
        ],
      },
    },
  ],
};

function answer(data: unknown): Response {
  return new Response(JSON.stringify({ success: true, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

const fetchMock = vi.fn<typeof fetch>();

/** The bodies of the requests sent to the submit endpoint. */
function submitted(): unknown[] {
  return fetchMock.mock.calls
    .filter(([url]) => String(url).startsWith(SUBMIT_ENDPOINT))
    .map(([, init]) => JSON.parse(String(init?.body)));
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) =>
    String(url).startsWith(SUBMIT_ENDPOINT) ? answer({ saved: true }) : answer(payload),
  );
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('isLoggedIn', 'true');
  void i18n.changeLanguage('en-GB');
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function page() {
  return (
    <JotaiProvider store={createStore()}>
      <I18nextProvider i18n={i18n}>
        <Screen screenId="kyc" />
      </I18nextProvider>
    </JotaiProvider>
  );
}

describe('KYC identifier fields on a screen', () => {
  it('checks a field when it loses focus, with the message of its failure, and clears it once fixed', async () => {
    const user = userEvent.setup();
    render(page());
    const panField = await screen.findByRole('textbox', { name: /PAN number/ });
    const gstinField = screen.getByRole('textbox', { name: /GSTIN/ });

    await user.click(panField);
    await user.tab();
    expect(panField).toHaveAttribute('aria-invalid', 'false');

    await user.type(panField, 'abcpe1234');
    await user.tab();
    expect(panField).toHaveValue('ABCPE1234');
    // The checks are code loaded at the first key or tap (engine/interaction.ts).
    await waitFor(() => expect(panField).toHaveAttribute('aria-invalid', 'true'));
    expect(panField).toHaveAccessibleDescription('A PAN has 10 characters');

    await user.clear(panField);
    await user.type(panField, 'abcde1234f');
    await user.tab();
    expect(panField).toHaveAccessibleDescription('A PAN is 5 letters, 4 digits and a letter');

    await user.clear(panField);
    await user.type(panField, 'abcpe1234f');
    await user.tab();
    expect(panField).toHaveAttribute('aria-invalid', 'false');
    expect(panField).toHaveAccessibleDescription('As printed on your PAN card');

    await user.type(gstinField, '27aapfu0939f1zw');
    await user.tab();
    expect(gstinField).toHaveAccessibleDescription('This GSTIN is not valid. Please check it for typos');
  });

  it('refuses to submit while a field is wrong or missing, then sends the upper-cased values', async () => {
    const user = userEvent.setup();
    render(page());
    const panField = await screen.findByRole('textbox', { name: /PAN number/ });
    const gstinField = screen.getByRole('textbox', { name: /GSTIN/ });
    const save = screen.getByRole('button', { name: 'Save' });

    await user.click(save);
    await waitFor(() => expect(panField).toHaveAccessibleDescription('Please enter your PAN number'));
    expect(gstinField).toHaveAccessibleDescription('Please enter your GSTIN');

    await user.type(panField, 'abcpe1234f');
    await user.type(gstinField, '27AAPFU0939F1ZW');
    await user.click(save);
    expect(gstinField).toHaveAccessibleDescription('This GSTIN is not valid. Please check it for typos');
    expect(panField).toHaveAttribute('aria-invalid', 'false');
    expect(submitted()).toEqual([]);

    await user.clear(gstinField);
    await user.type(gstinField, '27aapfu0939f1zv');
    await user.click(save);
    await waitFor(() =>
      expect(submitted()).toEqual([{ pan_number: 'ABCPE1234F', gstin: '27AAPFU0939F1ZV' }]),
    );
    expect(gstinField).toHaveAttribute('aria-invalid', 'false');
  });
});
