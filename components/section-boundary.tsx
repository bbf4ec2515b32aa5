'use client';
/**
 * Contains the failure of one streamed section: the rest of the page stays usable, and the
 * reader can retry just this part. (A segment's error.tsx would replace the whole page.)
 */
import { Component, type ReactNode } from 'react';

export class SectionBoundary extends Component<{ name: string; children: ReactNode }, { failed: boolean; digest: string | null }> {
  override state = { failed: false, digest: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    const digest = error && typeof error === 'object' && 'digest' in error && typeof error.digest === 'string' ? error.digest : null;
    return { failed: true, digest };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="rounded border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
        The {this.props.name} could not be loaded{this.state.digest ? ` (reference ${this.state.digest})` : ''}.{' '}
        <button type="button" className="underline" onClick={() => window.location.reload()}>
          Reload the page
        </button>
      </div>
    );
  }
}
