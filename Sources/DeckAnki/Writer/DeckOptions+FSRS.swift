import DeckCore
import DeckIO
import Foundation
import JSONCore

extension DeckOptions {
  /// The option group without its FSRS parameters (fitted to its owner's reviews), as Anki's
  /// export without scheduling clears them (`clear_fsrs_params`): the three parameter lists of a
  /// schema-18 group left out of its protobuf message, a schema-11 group's `fsrsWeights`,
  /// `fsrsParams5` and `fsrsParams6` emptied. Settings deckport cannot read are left as they are
  /// (the package writer reports them).
  package var withoutFSRSParameters: DeckOptions {
    var result = self
    switch settings {
    case .anki18Protobuf(let blob):
      var reader = ProtobufReader(blob, location: SourceLocation(file: ""))
      var kept = Data()
      var start = reader.position
      do {
        while let field = try reader.nextField() {
          try reader.skip(field.wireType)
          if !DeckOptionsConversion.fsrsParameterFields.contains(field.number) {
            kept.append(blob[blob.startIndex + start..<blob.startIndex + reader.position])
          }
          start = reader.position
        }
      } catch {
        return self
      }
      result.settings = .anki18Protobuf(kept)
    case .anki11JSON(let text):
      guard let value = try? JSONParser.parse(Array(text.utf8), options: .anki), case .object(let members) = value,
        members.contains(where: {
          DeckOptionsConversion.fsrsParameterKeys.contains($0.key) && $0.value != JSONValue.array([])
        })
      else { return self }
      let cleared = members.map { member in
        DeckOptionsConversion.fsrsParameterKeys.contains(member.key)
          ? (key: member.key, value: JSONValue.array([])) : member
      }
      result.settings = .anki11JSON(JSONWriter.text(of: .object(cleared)))
    }
    return result
  }
}
