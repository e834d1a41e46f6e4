import { useEffect, useId, useRef, useState } from 'react';
import { Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { useTranslation } from 'react-i18next';
import type { ChecklistContents } from '../../schemas/generated/types';
import type { Dispatch, WidgetProps } from '../widget-props';

type ChecklistTask = ChecklistContents['tasks'][number];

interface TaskRowProps {
  task: ChecklistTask;
  dispatch: Dispatch;
  /** Several rows' buttons run at once would race (two navigations): one runs, the others wait. */
  busyKey: string | null;
  setBusyKey(key: string | null): void;
  /** The key of the next task to do (the first pending one with a button): only its button is primary. */
  nextKey: string | null;
}

/**
 * One task: its title, description and the button with `action_label` ('Add' / 'Edit') running its actions.
 * The button's name is the label followed by the task title ('Add Basic info'). A disabled task shows its
 * description and no button.
 */
function TaskRow({ task, dispatch, busyKey, setBusyKey, nextKey }: TaskRowProps) {
  const baseId = useId();
  const titleId = `${baseId}-title`;
  const buttonId = `${baseId}-button`;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const disabled = task.disabled === true;
  const busy = busyKey === task.key;

  const run = async () => {
    setBusyKey(task.key);
    try {
      await dispatch(task.actions);
    } finally {
      // A navigate action may have unmounted the screen already.
      if (mounted.current) setBusyKey(null);
    }
  };

  return (
    <Paper
      component="li"
      variant="outlined"
      data-task={task.key}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        paddingBlock: 1.5,
        paddingInline: 2,
        listStyle: 'none',
        opacity: disabled ? 0.7 : 1,
      }}
    >
      {task.completed ? (
        <CheckCircleIcon color="success" aria-hidden="true" />
      ) : (
        <RadioButtonUncheckedIcon color="disabled" aria-hidden="true" />
      )}
      <Box sx={{ flex: 1, minInlineSize: 0 }}>
        <Typography
          id={titleId}
          component="h4"
          variant="subtitle1"
          sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
        >
          {task.title}
        </Typography>
        {task.description && (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {task.description}
          </Typography>
        )}
      </Box>
      {!disabled && (
        <Button
          id={buttonId}
          aria-labelledby={`${buttonId} ${titleId}`}
          // Issue 12 item 19: the next task stands out (contained); the others are secondary (outlined).
          variant={task.key === nextKey ? 'contained' : 'outlined'}
          size="small"
          loading={busy}
          aria-busy={busy}
          disabled={busyKey !== null && !busy}
          onClick={() => void run()}
          sx={{ flexShrink: 0, minBlockSize: 40, minInlineSize: 64 }}
        >
          {task.action_label}
        </Button>
      )}
    </Paper>
  );
}

/** A titled list of tasks. */
function TaskSection({
  title,
  tasks,
  ...row
}: { title: string; tasks: ChecklistTask[] } & Omit<TaskRowProps, 'task'>) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography
        id={headingId}
        component="h3"
        variant="subtitle2"
        color="text.secondary"
        sx={{ marginBlockEnd: 1 }}
      >
        {title}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ margin: 0, padding: 0 }}>
        {tasks.map((task) => (
          <TaskRow key={task.key} task={task} {...row} />
        ))}
      </Stack>
    </Box>
  );
}

/**
 * The `checklist` widget (SPEC §4, issue 3): a heading, a progress bar (role progressbar, aria-valuenow =
 * `completion_percentage`, named by the visible `progress_label`), the pending tasks under `pending_title`
 * (each with its 'Add' button; disabled ones show their description and no button), then the completed ones
 * under `completed_title` ('Completed Tasks') with their 'Edit' button. Only the next task's button (the
 * first pending one with a button) is primary; every other is outlined (issue 12 item 19). A section without tasks is left out.
 * Only one task's actions run at a time.
 */
export function Checklist({ contents, dispatch }: WidgetProps<ChecklistContents>) {
  const { t } = useTranslation();
  const headingId = useId();
  const progressLabelId = useId();
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const pending = contents.tasks.filter((task) => !task.completed);
  const completed = contents.tasks.filter((task) => task.completed);
  const nextKey = pending.find((task) => task.disabled !== true)?.key ?? null;
  const row = { dispatch, busyKey, setBusyKey, nextKey };

  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      data-section-status={contents.section_status}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
    >
      <Typography id={headingId} component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
        {contents.title}
      </Typography>
      <Box>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, marginBlockEnd: 0.5 }}>
          <Typography id={progressLabelId} variant="body2">
            {contents.progress_label}
          </Typography>
          {contents.section_status === 'COMPLETED' && (
            <Typography variant="body2" color="success.main">
              {t('widgets.checklist.completed')}
            </Typography>
          )}
        </Box>
        <LinearProgress
          variant="determinate"
          value={contents.completion_percentage}
          aria-labelledby={progressLabelId}
          aria-valuetext={contents.progress_label}
          sx={{ blockSize: 8, borderRadius: 4 }}
        />
      </Box>
      {pending.length > 0 && <TaskSection title={contents.pending_title} tasks={pending} {...row} />}
      {completed.length > 0 && <TaskSection title={contents.completed_title} tasks={completed} {...row} />}
    </Box>
  );
}
