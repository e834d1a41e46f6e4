import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { action } from 'storybook/actions';
import { Box, Button, Divider, Paper, Typography } from '@mui/material';
import type { WidgetType } from '../schemas/generated/types';
import { widgetRegistry } from '../renderer/engine/registry';
import { goodFixtures, type WidgetFixture } from '../widgets/fixtures';
import { HarnessedWidget } from '../widgets/test-harness';
import type { WidgetComponent } from '../widgets/widget-props';

/** Every registered widget type, in the registry's order: a widget added there appears here by itself. */
const widgetTypes = Object.keys(widgetRegistry) as WidgetType[];

/**
 * One good fixture drawn by its widget. Dialog widgets (contents with a `popup_id`) start closed as on a
 * screen; the button opens them the way an open_popup action would.
 */
function FixtureCard({ widgetType, fixture }: { widgetType: WidgetType; fixture: WidgetFixture }) {
  const [opened, setOpened] = useState(0);
  const contents = fixture.envelope.contents as Record<string, unknown>;
  const widget: WidgetComponent = widgetRegistry[widgetType];
  const popupId = typeof contents.popup_id === 'string' ? contents.popup_id : undefined;
  return (
    <Paper variant="outlined" sx={{ padding: 2, display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="overline" component="h3" color="text.secondary">
        {widgetType} · {fixture.name}
      </Typography>
      {popupId && (
        <Button variant="outlined" size="small" onClick={() => setOpened((n) => n + 1)}>
          open_popup {popupId}
        </Button>
      )}
      <HarnessedWidget
        key={opened}
        id={fixture.envelope.id}
        component={widget}
        contents={fixture.envelope.contents}
        popupOpenId={popupId && opened > 0 ? popupId : null}
        onDispatch={action(`${fixture.envelope.id} dispatch`)}
      />
    </Paper>
  );
}

/** All good fixtures of all widgets, grouped by widget type. */
function WidgetGallery({ only }: { only?: WidgetType }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {widgetTypes
        .filter((type) => !only || type === only)
        .map((type) => (
          <Box key={type} component="section" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            <Typography variant="h6" component="h2">
              {type}
            </Typography>
            {goodFixtures(type).map((fixture) => (
              <FixtureCard key={fixture.name} widgetType={type} fixture={fixture} />
            ))}
            <Divider />
          </Box>
        ))}
    </Box>
  );
}

const meta = {
  title: 'Overview/All widgets',
  component: WidgetGallery,
  parameters: { layout: 'padded' },
  argTypes: { only: { control: 'select', options: [undefined, ...widgetTypes] } },
} satisfies Meta<typeof WidgetGallery>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Every good fixture of every widget in the registry. */
export const AllGoodFixtures: Story = {};

/** The same in Arabic, right to left. */
export const AllGoodFixturesRtl: Story = { globals: { locale: 'ar' } };
