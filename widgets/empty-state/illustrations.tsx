import { useTheme } from '@mui/material';

/** Props of an illustration: decorative, so hidden from assistive technology. */
interface IllustrationProps {
  size?: number;
}

/** A small hotel building: the dashboard's "You have no Hotels associated". */
function Hotels({ size = 120 }: IllustrationProps) {
  const { palette } = useTheme();
  return (
    <svg width={size} height={size} viewBox="0 0 120 120" aria-hidden="true" focusable="false">
      <circle cx="60" cy="60" r="56" fill={palette.primary.main} opacity="0.08" />
      <rect
        x="34"
        y="30"
        width="52"
        height="66"
        rx="4"
        fill={palette.background.paper}
        stroke={palette.primary.main}
        strokeWidth="3"
      />
      {[42, 56, 70].map((y) =>
        [44, 56, 68].map((x) => (
          <rect
            key={`${x}-${y}`}
            x={x}
            y={y}
            width="8"
            height="8"
            rx="1"
            fill={palette.primary.main}
            opacity="0.5"
          />
        )),
      )}
      <rect x="53" y="82" width="14" height="14" fill={palette.primary.main} />
      <line
        x1="24"
        y1="96"
        x2="96"
        y2="96"
        stroke={palette.text.secondary}
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A magnifying glass: a search with no result. */
function Search({ size = 120 }: IllustrationProps) {
  const { palette } = useTheme();
  return (
    <svg width={size} height={size} viewBox="0 0 120 120" aria-hidden="true" focusable="false">
      <circle cx="60" cy="60" r="56" fill={palette.primary.main} opacity="0.08" />
      <circle
        cx="54"
        cy="52"
        r="22"
        fill={palette.background.paper}
        stroke={palette.primary.main}
        strokeWidth="5"
      />
      <line
        x1="70"
        y1="68"
        x2="90"
        y2="88"
        stroke={palette.primary.main}
        strokeWidth="8"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A warning sign: something could not be loaded. */
function ErrorSign({ size = 120 }: IllustrationProps) {
  const { palette } = useTheme();
  return (
    <svg width={size} height={size} viewBox="0 0 120 120" aria-hidden="true" focusable="false">
      <circle cx="60" cy="60" r="56" fill={palette.error.main} opacity="0.08" />
      <path
        d="M60 26 L94 88 H26 Z"
        fill={palette.background.paper}
        stroke={palette.error.main}
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <line
        x1="60"
        y1="48"
        x2="60"
        y2="68"
        stroke={palette.error.main}
        strokeWidth="6"
        strokeLinecap="round"
      />
      <circle cx="60" cy="78" r="3.5" fill={palette.error.main} />
    </svg>
  );
}

/** The inline SVG of each `illustration` value of the empty_state schema. */
export const illustrations = { hotels: Hotels, search: Search, error: ErrorSign } as const;
