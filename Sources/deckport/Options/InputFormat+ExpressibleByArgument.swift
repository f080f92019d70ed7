import ArgumentParser
import DeckConversion

extension InputFormat: ExpressibleByArgument {}

extension OutputFormat: ExpressibleByArgument {}
