// Draws the styled lines the format module computes. Every line is one <Text> that ink truncates at
// the pane's width (the lines are already cut to it; this is the safety net).
import { Box, Text } from 'ink';
import { useContext } from 'react';
import type { Line, Seg } from '../format.js';
import { ColorContext } from '../theme.js';

/** Ink props of a segment; without colour, only the attributes (bold, dim, reverse, underline) stay. */
export function segProps(seg: Seg, color: boolean) {
  return {
    color: color ? seg.color : undefined,
    bold: seg.bold,
    dimColor: seg.dim,
    inverse: seg.inverse,
    underline: seg.underline,
  };
}

export function StyledLine({ line }: { line: Line }) {
  const color = useContext(ColorContext);
  const segs = line.filter((s) => s.text.length > 0);
  if (!segs.length) return <Text> </Text>;
  return (
    <Text wrap="truncate">
      {segs.map((s, i) => (
        <Text key={i} {...segProps(s, color)}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

/** Exactly `height` lines: the first ones given, then blank lines. */
export function Lines({ lines, height, width }: { lines: readonly Line[]; height: number; width: number }) {
  const shown = lines.slice(0, Math.max(0, height));
  return (
    <Box flexDirection="column" width={width} height={Math.max(0, height)} overflow="hidden">
      {shown.map((l, i) => (
        <StyledLine key={i} line={l} />
      ))}
      {Array.from({ length: Math.max(0, height - shown.length) }, (_, i) => (
        <Text key={`pad${i}`}> </Text>
      ))}
    </Box>
  );
}
