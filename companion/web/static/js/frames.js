// The frames the pages read, as JSDoc types for the checker (`make lint`: tsc over JSDoc).
// Types only: no page loads this module at run time (imports of it are `import("./frames.js")`
// in comments). Fields as companion/web/PROTOCOL.md section 3.4 names them; a field a frame may
// lack is optional.

/**
 * @typedef {object} Seat a seat of the table (`view.seats`)
 * @property {string} id
 * @property {string} name
 * @property {string} colour
 * @property {string} [hex] the LED colour; screens draw format.js's screen colour
 * @property {boolean} [connected]
 * @property {"phone" | "auto" | "bot" | "vacant"} [state]
 * @property {boolean} [companion] skipped by the host or a companion player
 * @property {null | "plain" | "good" | "strong"} [level]
 * @property {boolean} [person]
 */

/**
 * @typedef {object} Pending a decision the game waits for (R2.4-R5.4)
 * @property {string} type sacrifice | bid | dice | roll | city | pyramid | harvest | improvements
 * @property {string} [player] absent for the host's inputs
 * @property {number} [count] dice to roll (`roll`)
 * @property {number} [station]
 */

/**
 * @typedef {object} PlayerView one player in the engine's view
 * @property {number} [score]
 * @property {number} [huts]
 * @property {number} [dice]
 * @property {number} [cubes_used]
 * @property {number[]} [deck] the own deck only (another seat's is not sent)
 * @property {number[]} [used] cards used this round (own)
 * @property {Record<string, number[]>} [bids] own locked bids by station
 * @property {Record<string, number | null>} [final] the final scoring's lines (R7)
 */

/**
 * @typedef {object} WindowBid one bid of an open bonus dice window (R3.2, R3.3)
 * @property {number[]} cards
 * @property {number} [cards_sum]
 * @property {number} huts
 * @property {number} old_man
 * @property {number} base the effective bid before dice
 * @property {number} dice dice held
 * @property {number} place
 * @property {Record<string, number>} best best place with k own dice
 * @property {number} worst
 * @property {boolean} [fixed]
 * @property {boolean} [matters]
 */

/**
 * @typedef {object} GameView the engine's view (SCENARIO.md state keys), as far as this
 *   receiver may see it
 * @property {number} [round]
 * @property {string} [phase]
 * @property {string | number} [step] "all" | "first" | "second" | a station
 * @property {number} [station]
 * @property {string} [mode]
 * @property {Record<string, PlayerView>} [players]
 * @property {string[]} [seats]
 * @property {Pending[]} [pending]
 * @property {Record<string, any>} [profile]
 * @property {number[] | null} [harvest]
 * @property {number[] | null} [improvements]
 * @property {Record<string, Record<string, number[]>>} [revealed] station -> player -> cards
 * @property {{station: number, bids?: Record<string, WindowBid>, choices?: Record<string, number>} | null} [dice_window]
 * @property {{type: string, second?: string} | null} [decision]
 * @property {{stations: string[], cards: number} | null} [bid_shape]
 * @property {Record<string, boolean>} [bid_status]
 * @property {boolean} [last_round]
 * @property {string} [last_round_reason]
 * @property {boolean} [finished]
 * @property {string[]} [winners]
 * @property {Record<string, Record<string, number | null>>} [projection]
 */

/**
 * An engine event, redacted for the receiver: `type` and the fields that type carries.
 * @typedef {{type: string, player?: string, round?: number, station?: number} & Record<string, any>} GameEvent
 */

/**
 * @typedef {object} Game `view.game`
 * @property {number} id
 * @property {"playing" | "finished" | "ended"} status
 * @property {"digital" | "table"} [dice]
 * @property {GameView} view
 * @property {{player: string, score: number, place: number}[]} [standings]
 * @property {"host" | "cafe"} [ended_by]
 * @property {{before: Record<string, any>, beats: Record<string, any>[]}} [staged] each beat's
 *   view of the step up, as its difference from `view` (only while the beats run;
 *   companion/table/staging.py)
 */

/**
 * @typedef {object} Notice what the host did to this seat's own move (seat frames)
 * @property {"undone" | "resumed"} kind
 * @property {string} [type]
 * @property {string[]} [stations]
 * @property {number} [station]
 */

/**
 * @typedef {object} You this seat (seat frames only)
 * @property {string} seat
 * @property {string} [name]
 * @property {Pending[]} [pending]
 * @property {({type: string, station?: number} & Record<string, any>)[]} [companion_moves]
 * @property {{station: number, place?: number, kind: "dice" | "pyramid"}[]} [not_asked]
 */

/**
 * @typedef {object} ViewFrame the `view` frame
 * @property {"view"} type
 * @property {number} seq
 * @property {string} [reason]
 * @property {Record<string, any>} [table]
 * @property {Seat[]} [seats]
 * @property {You | null} [you]
 * @property {Game | null} [game]
 * @property {GameEvent[]} [events]
 * @property {GameEvent[]} [history]
 * @property {number} [history_from] how many of the game's events come before `history`
 * @property {Notice} [notice]
 * @property {Record<string, any>} [show]
 * @property {Record<string, any> | null} [board]
 * @property {Record<string, any> | null} [story]
 * @property {Record<string, any>} [host]
 * @property {Record<string, any>} [review]
 */

/**
 * @typedef {object} BoardFrame the LED board's status alone (displays only)
 * @property {"board"} type
 * @property {Record<string, any> | null} board
 */

/**
 * @typedef {object} AckFrame
 * @property {"ack"} type
 * @property {string} id
 * @property {number} seq
 */

/**
 * @typedef {object} ErrorFrame
 * @property {"error"} type
 * @property {string} code
 * @property {string} [reason]
 * @property {string | null} [id]
 */

export {};
