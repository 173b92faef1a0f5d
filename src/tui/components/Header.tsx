// The header: window, zone, hosts, sources, events, findings by severity, the top finding.
import { memo } from 'react';
import { headerLines, type HeaderInfo } from '../format.js';
import { Lines } from './StyledLine.js';

export const Header = memo(function Header({ info, width }: { info: HeaderInfo; width: number }) {
  return <Lines lines={headerLines(info, width)} height={2} width={width} />;
});
