import { lazy, type ReactElement } from 'react';
import type { InputContents } from '../../schemas/generated/types';
import { FieldLoading } from './field-loading';
import { lazyModule, pagePreloads } from '../retry-import';
import { loadTextareaAutosize } from '../textarea-autosize';
import type { ContentsCode, WidgetProps } from '../widget-props';

/**
 * The input kinds of ./kinds.tsx (multiline, number, text with a KYC identifier), a chunk of its own: no
 * sign-in screen draws them, so the first page does not carry them (issue 13 item 2). The engine fetches it
 * before it draws a screen with such a field ({@link ContentsCode}: {@link prepareKinds}), so that screen
 * draws it whole in its first render. It comes with MUI's TextareaAutosize (../textarea-autosize.tsx), which the
 * multiline field draws.
 */
const kindsModule = lazyModule(() =>
  Promise.all([import('./kinds'), loadTextareaAutosize()]).then(([kinds]) => kinds),
);

/** Whether `contents` is one of the kinds of ./kinds.tsx. */
export function isLazyKind(contents: Pick<InputContents, 'kind' | 'identifier'>): boolean {
  return (
    contents.kind === 'multiline' ||
    contents.kind === 'number' ||
    (contents.kind === 'text' && !!contents.identifier)
  );
}

/** {@link ContentsCode} `prepare` of the input widget: the kinds' chunk for a field of one of them. */
export const prepareKinds = ((contents) =>
  isLazyKind(contents)
    ? kindsModule.firstTry(pagePreloads('contents-code', 'widgets/input/kinds.tsx'))
    : Promise.resolve()) satisfies ContentsCode<InputContents>['prepare'];

/** {@link ContentsCode} `prepared` of the input widget. */
export const kindsPrepared = ((contents) =>
  !isLazyKind(contents) || kindsModule.loaded() !== null) satisfies ContentsCode<InputContents>['prepared'];

const LazyKind = lazy(() =>
  kindsModule.load().then((m) => ({
    default: function Kind(props: WidgetProps<InputContents>) {
      return <KindField kinds={m} {...props} />;
    },
  })),
);

/** The field of `contents.kind` among those of ./kinds.tsx. */
function KindField({ kinds, ...props }: WidgetProps<InputContents> & { kinds: typeof import('./kinds') }) {
  const { contents } = props;
  if (contents.kind === 'multiline') return <kinds.MultilineField {...props} />;
  if (contents.kind === 'number') return <kinds.NumberField {...props} />;
  return <kinds.IdentifierField {...props} />;
}

/** Height of a field while its code comes (px): an outlined field with its label. */
const FIELD_PLACEHOLDER_HEIGHT_PX = 56;

/**
 * A field of one of the kinds of ./kinds.tsx: drawn at once when the chunk is here (the engine fetched it
 * before the screen), else a busy placeholder while it comes (its first try failed; the retries go on). A chunk
 * that failed every try leaves the widget's error boundary to draw its fallback.
 */
export function LazyKindField(props: WidgetProps<InputContents>): ReactElement {
  const kinds = kindsModule.loaded();
  if (kinds) return <KindField kinds={kinds} {...props} />;
  return (
    <FieldLoading heightPx={FIELD_PLACEHOLDER_HEIGHT_PX}>
      <LazyKind {...props} />
    </FieldLoading>
  );
}
