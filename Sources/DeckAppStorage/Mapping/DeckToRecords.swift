import DeckCore
import DeckIO
import Foundation

/// Builds app records from a deck's notes (see ``AppRecordMapping/records(from:profile:)``).
struct DeckToRecords {
  let collection: DeckCollection
  let profile: AppRecordProfile?
  /// The storage the records are for, which warnings name (nil: none).
  let file: String?

  func records() throws -> (records: AppRecords, warnings: [Diagnostic]) {
    // Records made into notes go back under their own record type (an entity's name).
    let name =
      profile?.recordType ?? collection.noteTypes.first.map { RecordsToDeck.recordType(ofNoteType: $0.name) } ?? "Notes"
    let location = AppRecordMapping.location(ofRecords: name, in: file)
    // Each value goes by its note type's field name: a note with more or fewer values than its
    // note type has fields is first fitted to them, as Anki's Check Database fits it.
    let (collection, fieldCountWarnings) = try CollectionRepair.fittingFields(collection, location: location)
    var warnings = fieldCountWarnings
    let media = Dictionary(collection.media.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    // The deck's media file a reference names: the one of its name, else the one of the name
    // Anki's import stores for it (`a/` and `a\b.png` name the files `a` and `ab.png`).
    func fileName(_ reference: String) -> String {
      guard media[reference] == nil else { return reference }
      let stored = MediaFileName.normalized(reference)
      return media[stored] == nil ? reference : stored
    }
    // Each media file's bytes, read once and shared by every record that holds them (`Data`
    // shares its storage), so a picture many notes use is in memory once, not once a record.
    var mediaValues: [String: AppValue] = [:]
    // Media files whose loss a warning about one field already names (not named again).
    var reportedMedia = Set<String>()
    let noteTypes = Dictionary(collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var notes = collection.notes
    if let profile, let own = collection.noteTypes.first(where: { $0.name == profile.title }) {
      let others = notes.filter { $0.noteTypeID != own.id }.count
      if others > 0 {
        warnings.append(
          Diagnostic(
            .noteSkipped, at: location, "\(others) notes of other note types than \(profile.title) are left out"))
      }
      notes = notes.filter { $0.noteTypeID == own.id }
    }
    var formattingChanged = 0
    var records: [AppRecord] = []
    // The note that took each UUID: Anki tells GUIDs apart by case, a UUID does not.
    var noteOfUUID: [UUID: (id: Int64, guid: String)] = [:]
    for note in notes {
      // Where a warning about one of the note's fields or of the record's keys points: the note
      // with its own note type (notes of several become records of one type). Made only for a
      // warning.
      func noteName() -> String {
        noteTypes[note.noteTypeID].map { "note \(note.id) (\($0.name))" } ?? "note \(note.id)"
      }
      func fieldPlace(_ name: String) -> SourceLocation { location.itemPart("\(noteName()), field '\(name)'") }
      func keyPlace(_ name: String) -> SourceLocation { location.itemPart("\(noteName()), key '\(name)'") }
      let fieldNames = noteTypes[note.noteTypeID]?.fieldNames ?? note.fields.indices.map { "Field \($0 + 1)" }
      var record = AppRecord()
      var losses = FieldText.Losses()
      if let profile {
        let assignment = Self.assign(profile.noteFieldNames, to: fieldNames)
        // The note's field at `index`, empty when the note has fewer fields than its note type.
        func noteField(_ index: Int) -> String { note.fields.indices.contains(index) ? note.fields[index] : "" }
        var used = Set(assignment.values)
        // Data keys first: their own field, else the first picture anywhere in the note. A field
        // given to a Data key without a picture keeps no place (so its text is reported below,
        // not lost).
        var taken = Set<String>()
        var dataValues: [String: AppValue] = [:]
        for field in profile.fields where field.type == .data {
          guard case .field(let fieldName) = field.role else { continue }
          func hasPicture(_ index: Int) -> Bool {
            MediaReferences.fileNames(in: noteField(index)).contains { !taken.contains(fileName($0)) }
          }
          let own = assignment[fieldName]
          if let own, !hasPicture(own) { used.remove(own) }
          let source = own.flatMap { hasPicture($0) ? $0 : nil } ?? note.fields.indices.first(where: hasPicture)
          guard let source else { continue }
          used.insert(source)
          let html = noteField(source)
          guard let name = MediaReferences.fileNames(in: html).lazy.map(fileName).first(where: { !taken.contains($0) })
          else { continue }
          taken.insert(name)
          if let value = mediaValue(
            name, media: media, read: &mediaValues, at: keyPlace(field.key), warnings: &warnings,
            reported: &reportedMedia)
          {
            dataValues[field.key] = value
          }
        }
        var chosen: [(field: AppRecordProfile.Field, choices: AppRecordProfile.Choices, fieldName: String)] = []
        for field in profile.fields {
          switch field.role {
          case .noteGUID:
            var uuid = NoteIdentity.uuid(forGUID: note.guid)
            if let holder = noteOfUUID[uuid] {
              // Two notes whose GUIDs are one UUID in two cases: the later gets the UUID derived
              // from its GUID, so the app does not take the two for one.
              uuid = NoteIdentity.derivedUUID(note.guid)
              warnings.append(
                Diagnostic(
                  .idRepeated, at: keyPlace(field.key),
                  "the note's GUID '\(note.guid)' is the UUID of note \(holder.id)'s GUID '\(holder.guid)' in another case, which the app would take for one \(field.key); its record gets the \(field.key) \(uuid.uuidString), made from its GUID"
                ))
            }
            noteOfUUID[uuid] = (note.id, note.guid)
            record[field.key] = .uuid(uuid)
          case .noteCreation:
            record[field.key] = .date(Date(timeIntervalSince1970: Double(note.id) / 1000))
          case .field(let fieldName):
            if field.type == .data {
              // A required Data key without a picture is empty data, as the app stores `Data()`.
              if let value = dataValues[field.key] {
                record[field.key] = value
              } else if field.required {
                record[field.key] = .data(Data())
              }
              continue
            }
            let html = assignment[fieldName].map(noteField) ?? ""
            for file in MediaReferences.fileNames(in: html) where !taken.contains(fileName(file)) {
              reportedMedia.insert(fileName(file))
              warnings.append(
                Diagnostic(
                  .mediaDropped, at: fieldPlace(fieldName),
                  "refers to \(file), which the \(profile.title) key '\(field.key)' (text) cannot hold"))
            }
            let text = FieldText.text(html, losses: &losses)
            if let choices = field.choices {
              record[field.key] = .string(text)
              chosen.append((field, choices, fieldName))
              continue
            }
            // An optional key with nothing in it is absent, as JSONEncoder leaves out a nil optional.
            if field.required || !text.isEmpty { record[field.key] = .string(text) }
          }
        }
        // Keys with fixed values last: the fallback depends on another key's text.
        for (field, choices, fieldName) in chosen {
          guard case .string(let text)? = record[field.key] else { continue }
          let value = ChoiceMapping.value(
            text, choices: choices, record: record, at: fieldPlace(fieldName), key: field.key, profile: profile,
            warnings: &warnings)
          record[field.key] = .string(value)
        }
        for (index, fieldName) in fieldNames.enumerated() where !used.contains(index) && !noteField(index).isEmpty {
          warnings.append(
            Diagnostic(
              .fieldDropped, at: fieldPlace(fieldName), "the field has no place in a \(profile.title) and is left out"
            ))
        }
      } else {
        for (index, fieldName) in fieldNames.enumerated() where index < note.fields.count {
          let html = note.fields[index]
          let files = MediaReferences.fileNames(in: html)
          let trimmed = html.trimmingCharacters(in: .whitespaces)
          let isOnlyMedia =
            files.count == 1
            && [MediaSniffing.Reference.image, .sound, .object].contains {
              trimmed == MediaSniffing.fieldText(for: files[0], reference: $0)
            }
          if isOnlyMedia {
            // A field that is only a picture or sound becomes data (its text if the file is missing).
            record[fieldName] =
              mediaValue(
                fileName(files[0]), media: media, read: &mediaValues, at: fieldPlace(fieldName), warnings: &warnings,
                reported: &reportedMedia)
              ?? .string(FieldText.text(html, losses: &losses))
          } else {
            // A picture or sound beside text, or several, has no place in a text value.
            for file in files {
              reportedMedia.insert(fileName(file))
              warnings.append(
                Diagnostic(
                  .mediaDropped, at: fieldPlace(fieldName),
                  "refers to \(file) beside other content, which a text value cannot hold (only a field that is the picture or sound alone becomes data)"
                ))
            }
            record[fieldName] = .string(FieldText.text(html, losses: &losses))
          }
        }
      }
      if losses.changedFormatting { formattingChanged += 1 }
      records.append(record)
    }
    if formattingChanged > 0 {
      warnings.append(
        Diagnostic(
          .formattingDropped, at: location,
          "\(CountedNoun.phrase(formattingChanged, "note")) had HTML formatting, which plain app text cannot keep (tags are removed; a <div> or <p> block becomes a line break, which comes back as <br>)"
        )
      )
    }
    let tagged = notes.filter { !$0.tags.isEmpty }.count
    if tagged > 0 {
      warnings.append(
        Diagnostic(
          .tagsDropped, at: location,
          "\(CountedNoun.phrase(tagged, "note")) \(tagged == 1 ? "has" : "have") tags, which the records cannot hold"))
    }
    warnings += Self.schedulingLosses(of: collection, notes: notes, at: location)
    warnings += Self.structureLosses(
      of: collection, notes: notes, profile: profile, recordType: name, at: location)
    warnings += Self.noteTypeLosses(of: collection, notes: notes, at: location)
    warnings += Self.mediaLosses(
      of: collection, accountedFor: reportedMedia.union(mediaValues.keys), at: location)
    warnings += collection.ankiOnlyLosses(at: location, format: "app storage")
    var result = AppRecords(name: name, records: records, declared: nil, profile: profile)
    result.valuesAreNoteText = profile == nil
    result.creationDatesAreNoteIDs = profile?.fields.contains { $0.role == .noteCreation } ?? false
    if profile == nil { result.noteGUIDs = notes.map(\.guid) }
    return (result, warnings)
  }

  /// For each profile field name, the note field it takes: the one with the same name (ignoring
  /// case), else the next unassigned one by position.
  static func assign(_ profileFields: [String], to noteFields: [String]) -> [String: Int] {
    var assignment: [String: Int] = [:]
    var taken = Set<Int>()
    for name in profileFields {
      if let index = noteFields.firstIndex(where: { $0.lowercased() == name.lowercased() }) {
        assignment[name] = index
        taken.insert(index)
      }
    }
    var next = 0
    for name in profileFields where assignment[name] == nil {
      while taken.contains(next) { next += 1 }
      guard next < noteFields.count else { break }
      assignment[name] = next
      taken.insert(next)
    }
    return assignment
  }

  /// The bytes of the media file `name`, taken from `read` when an earlier record read them (and
  /// put there when not); a large one mapped from a temporary file (``SpilledBytes``), so that a
  /// deck's pictures do not all sit in memory at once. A file that cannot be read goes into
  /// `reported`, as its warning names it.
  private func mediaValue(
    _ name: String, media: [String: MediaFile], read: inout [String: AppValue], at location: SourceLocation,
    warnings: inout [Diagnostic], reported: inout Set<String>
  ) -> AppValue? {
    if let value = read[name] { return value }
    guard let file = media[name] else {
      warnings.append(Diagnostic(.mediaMissing, at: location, "refers to \(name), which the deck does not have"))
      return nil
    }
    do {
      let value = AppValue.data(try SpilledBytes.bytes(size: try file.blob.size()) { try file.blob.forEachChunk($0) })
      read[name] = value
      return value
    } catch {
      reported.insert(name)
      warnings.append(Diagnostic(.mediaMissing, at: location, "cannot read \(name) (\(error))"))
      return nil
    }
  }
}
