import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor wait for a state; lazily loaded widgets and validators take more than the default 1 s to
// arrive on a loaded 2-core machine, so the ceiling is 5 s (a passing test returns as soon as the state is there).
configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());
