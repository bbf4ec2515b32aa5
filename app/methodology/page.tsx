import type { Metadata } from 'next';
import { Methodology } from '@/components/methodology';

export const metadata: Metadata = { title: 'Methodology', description: 'How Assay makes each number from verdicts, and how far to trust it.' };

export default function MethodologyPage() {
  return <Methodology />;
}
