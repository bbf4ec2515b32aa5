'use client';
/**
 * Deep links into streamed sections (`#cell`, `#point-3`): the browser looks for the anchor
 * when the document arrives, before the section holding it has streamed in, and gives up.
 * Rendered at the end of such a section, this scrolls to the anchor once the section exists.
 */
import { useEffect } from 'react';

export function ScrollToHash() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    const target = document.getElementById(id);
    if (target) target.scrollIntoView({ block: 'start' });
  }, []);
  return null;
}
