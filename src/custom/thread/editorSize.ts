/**
 * The message editor's size, apart from its (lazy) code: the form draws a placeholder of the same height
 * while the editor loads, so the buttons below it do not move when it arrives (they used to jump 41 px,
 * and a click aimed at one landed on the one above).
 */

/** SPEC 9: the editor's default height (its writing area). */
export const EDITOR_HEIGHT = 310;
/** The toolbar above the writing area, its bottom border included. */
export const EDITOR_TOOLBAR_HEIGHT = 39;
/** The whole editor as it first shows: the toolbar, the writing area and the frame's two borders. */
export const EDITOR_FRAME_HEIGHT = EDITOR_TOOLBAR_HEIGHT + EDITOR_HEIGHT + 2;
