import type { Metadata } from 'next';
import { Suspense } from 'react';
import { humanFiguresKey } from '@/lib/core';
import { getDb } from '@/lib/server/compose/database';
import { readHumanFigures } from '@/lib/server/db/queries/human-figures';
import { calibrationView } from '@/lib/views/human-figures-view';
import { CalibrationSection } from '@/components/human/calibration-section';
import { Methodology } from '@/components/methodology';
import { SectionBoundary } from '@/components/section-boundary';
import { TableSkeleton } from '@/components/skeletons';

export const metadata: Metadata = { title: 'Methodology', description: 'How Assay makes each number from verdicts, and how far to trust it.' };
export const dynamic = 'force-dynamic';

/** Every blueprint's labels together: how far the judges agree with people across the platform. */
async function HumanCalibration() {
  const figures = (await readHumanFigures(getDb(), [humanFiguresKey.all])).get(humanFiguresKey.all);
  return <CalibrationSection view={calibrationView(figures?.kind === 'calibration' ? figures : null)} />;
}

export default function MethodologyPage() {
  return (
    <div className="space-y-10">
      <Methodology />
      <SectionBoundary name="judges checked against people">
        <Suspense fallback={<TableSkeleton label="judges checked against people" rows={3} />}>
          <HumanCalibration />
        </Suspense>
      </SectionBoundary>
    </div>
  );
}
