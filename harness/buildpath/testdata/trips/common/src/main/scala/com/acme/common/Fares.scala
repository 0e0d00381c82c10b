package com.acme.common

import org.jspecify.annotations.NullMarked

@NullMarked
object Fares {
  val BaseFare: Double = 2.5

  def withBase(fare: Double): Double = fare + BaseFare
}
