import DoseCore
