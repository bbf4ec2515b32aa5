'use client';

import { ErrorPanel, type ErrorBoundaryProps } from '@/components/error-panel';

export default function ModelError(props: ErrorBoundaryProps) {
  return <ErrorPanel {...props} title="This model could not be shown" what="Something went wrong while reading its scores" />;
}
