'use client';

import { ErrorPanel, type ErrorBoundaryProps } from '@/components/error-panel';

export default function ErrorPage(props: ErrorBoundaryProps) {
  return <ErrorPanel {...props} title="Something went wrong" what="The page could not be shown" />;
}
