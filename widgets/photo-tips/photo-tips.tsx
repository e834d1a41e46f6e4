import { useId } from 'react';
import { Box, Paper, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import { useTranslation } from 'react-i18next';
import type { PhotoTipsContents } from '../../schemas/generated/types';
import type { WidgetProps } from '../widget-props';

/**
 * The `photo_tips` widget (issue 4; SPEC §2 'images with photo tips and sample images'): a heading, the tips
 * as a list, and sample pictures (files under /propertyOnboard/samples/ or https) with their alt text and
 * captions, two to a row on a phone. Static: it dispatches nothing.
 */
export function PhotoTips({ contents }: WidgetProps<PhotoTipsContents>) {
  const { t } = useTranslation();
  const headingId = useId();
  const samplesId = useId();
  const samples = contents.samples ?? [];
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{
        paddingBlock: 2,
        paddingInline: 2,
        borderRadius: 2,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
      }}
    >
      <Typography id={headingId} component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
        {contents.title}
      </Typography>
      <Box component="ul" sx={{ margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
        {contents.tips.map((tip, index) => (
          <Box
            component="li"
            key={index}
            sx={{ listStyle: 'none', display: 'flex', alignItems: 'flex-start', gap: 1 }}
          >
            <CheckCircleOutlineIcon
              fontSize="small"
              color="success"
              aria-hidden
              sx={{ marginBlockStart: '2px' }}
            />
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {tip}
            </Typography>
          </Box>
        ))}
      </Box>
      {samples.length > 0 && (
        <>
          <Typography id={samplesId} component="h3" variant="subtitle2" sx={{ fontWeight: 600 }}>
            {t('widgets.photo_tips.samples')}
          </Typography>
          <Box
            component="ul"
            aria-labelledby={samplesId}
            sx={{
              margin: 0,
              padding: 0,
              display: 'grid',
              gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
              gap: 1.5,
            }}
          >
            {samples.map((sample, index) => (
              <Box component="li" key={index} sx={{ listStyle: 'none' }}>
                <Box component="figure" sx={{ margin: 0 }}>
                  <Box
                    component="img"
                    src={sample.src}
                    alt={sample.alt}
                    loading="lazy"
                    width={400}
                    height={300}
                    sx={{
                      display: 'block',
                      inlineSize: '100%',
                      blockSize: 'auto',
                      aspectRatio: '4 / 3',
                      objectFit: 'cover',
                      borderRadius: 1,
                      bgcolor: 'action.hover',
                    }}
                  />
                  {sample.caption && (
                    <Typography
                      component="figcaption"
                      variant="caption"
                      color="text.secondary"
                      sx={{ display: 'block', marginBlockStart: 0.5, overflowWrap: 'anywhere' }}
                    >
                      {sample.caption}
                    </Typography>
                  )}
                </Box>
              </Box>
            ))}
          </Box>
        </>
      )}
    </Paper>
  );
}
