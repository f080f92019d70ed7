// DeckKit: deckport as a library. An app imports this one module and gets the deck model
// (DeckCore), every format (Anki packages, the deckport JSON deck and folder, CSV/TSV,
// CrowdAnki folders, app storage) and the conversion API (loading, converting, comparing).
//
// The I/O wrappers, tokenizers and codecs behind the formats are not part of it: they have
// `package` access and are free to change.

@_exported import DeckAnki
@_exported import DeckAppStorage
@_exported import DeckCSV
@_exported import DeckConversion
@_exported import DeckCore
@_exported import DeckCrowdAnki
@_exported import DeckJSON
