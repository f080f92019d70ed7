import ArgumentParser
import DeckConversion

extension InputFormat: ExpressibleByArgument {}
