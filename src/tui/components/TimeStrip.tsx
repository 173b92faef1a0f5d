// The time strip: events per bucket, one row per host, the findings band, the cursor's column.
import type { Zone } from '../../parse/time.js';
import { stripLines, zoomNote } from '../format.js';
import type { StripView } from '../view-model.js';
import { Lines } from './StyledLine.js';

interface TimeStripProps {
  view: StripView;
  labelWidth: number;
  width: number;
  zone: Zone;
  sameDay: boolean;
}

export function TimeStrip({ view, labelWidth, width, zone, sameDay }: TimeStripProps) {
  const lines = stripLines(view, labelWidth, zone, sameDay, zoomNote(view.zoom, view.bucketMs));
  return <Lines lines={lines} height={lines.length} width={width} />;
}
