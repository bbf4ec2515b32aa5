'use client';

import { ErrorPanel, type ErrorBoundaryProps } from '@/components/error-panel';

export default function BlueprintError(props: ErrorBoundaryProps) {
  return <ErrorPanel {...props} title="This blueprint could not be shown" what="Something went wrong while reading it" />;
}
