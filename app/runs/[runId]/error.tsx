'use client';

import { ErrorPanel, type ErrorBoundaryProps } from '@/components/error-panel';

export default function RunError(props: ErrorBoundaryProps) {
  return <ErrorPanel {...props} title="This run could not be shown" what="Something went wrong while reading its results" />;
}
