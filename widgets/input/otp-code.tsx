import { lazy, type ReactElement } from 'react';
import type { InputContents } from '../../schemas/generated/types';
import { FieldLoading } from './field-loading';
import { lazyModule } from '../retry-import';
import type { WidgetProps } from '../widget-props';

/**
 * The one-time-code field (./otp-field.tsx), a chunk of its own: a sign-in screen draws it only once a code
 * was sent, so the first page does not carry it (issue 13 item 2). The phone field fetches it at its first
 * keystroke ({@link loadOtpField}), with libphonenumber-js, so it is there when the code step shows.
 */
const otpModule = lazyModule(() => import('./otp-field'));
const LazyOtpField = lazy(() => otpModule.load().then((m) => ({ default: m.OtpField })));

/**
 * Starts fetching the one-time-code field (once; SPEC §4 retries); resolves once it is there or its first try
 * failed, never rejects.
 */
export function loadOtpField(): Promise<void> {
  return otpModule.firstTry();
}

/** Height of the code field while its code comes (px): its label, boxes and hint, so nothing moves after. */
const OTP_PLACEHOLDER_HEIGHT_PX = 120;

/**
 * The `otp` kind of the input widget: the field itself once its chunk is here, a busy placeholder of its
 * height before. A chunk that failed every try leaves the widget's error boundary to draw its fallback.
 */
export function OtpInput(props: WidgetProps<InputContents>): ReactElement {
  const Loaded = otpModule.loaded()?.OtpField;
  if (Loaded) return <Loaded {...props} />;
  return (
    <FieldLoading heightPx={OTP_PLACEHOLDER_HEIGHT_PX}>
      <LazyOtpField {...props} />
    </FieldLoading>
  );
}
