// Colour on or off for the whole TUI (off with NO_COLOR or FORCE_COLOR=0). Without colour the
// screen still reads: the cursor is reverse video, severities have their own glyphs and words.
import { createContext } from 'react';

export const ColorContext = createContext(true);
