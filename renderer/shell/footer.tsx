import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import BottomNavigation from '@mui/material/BottomNavigation';
import Box from '@mui/material/Box';
import BottomNavigationAction from '@mui/material/BottomNavigationAction';
import Paper from '@mui/material/Paper';
import { logAnalyticsEvent } from './app-analytics';
import AccountCircle from '@mui/icons-material/AccountCircle';
import Apartment from '@mui/icons-material/Apartment';

/** The footer tabs (SPEC §2): My Properties → /dashboard, Account → /account. */
export const FOOTER_TABS = [
  {
    value: '/dashboard',
    labelKey: 'shell.footer.my_properties',
    Icon: Apartment,
    event: 'footer_my_properties_click',
  },
  { value: '/account', labelKey: 'shell.footer.account', Icon: AccountCircle, event: 'footer_account_click' },
] as const;

/**
 * The bottom navigation (SPEC §2 footer), role navigation. `current` is the app path of the page ('/dashboard');
 * each click logs an analytics event and calls `onNavigate` with the tab's app path.
 */
export function Footer({
  current,
  onNavigate,
}: {
  current: string;
  onNavigate: (to: string) => void;
}): ReactElement {
  const { t } = useTranslation();
  const value = FOOTER_TABS.some((tab) => tab.value === current) ? current : false;
  return (
    <>
      {/* Keeps the end of the page above the fixed bar (56 px, MUI BottomNavigation) and the home indicator. */}
      <Box aria-hidden="true" sx={{ height: 'calc(56px + env(safe-area-inset-bottom, 0px))' }} />
      <Paper
        elevation={3}
        sx={{
          position: 'fixed',
          bottom: 0,
          insetInlineStart: 0,
          insetInlineEnd: 0,
          paddingBlockEnd: 'env(safe-area-inset-bottom, 0px)',
        }}
      >
        <BottomNavigation
          component="nav"
          aria-label={t('shell.footer.label')}
          showLabels
          value={value}
          onChange={(_event, next: string) => {
            const tab = FOOTER_TABS.find((candidate) => candidate.value === next);
            if (!tab) return;
            logAnalyticsEvent(tab.event, { from: current });
            onNavigate(tab.value);
          }}
        >
          {FOOTER_TABS.map(({ value: tabValue, labelKey, Icon }) => (
            <BottomNavigationAction key={tabValue} value={tabValue} label={t(labelKey)} icon={<Icon />} />
          ))}
        </BottomNavigation>
      </Paper>
    </>
  );
}
